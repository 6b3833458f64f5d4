# ast-grep-ignore
print("python has no rule here")
