def main():
    print("hello")
    # ast-grep-ignore: no-print
    print("quiet")
