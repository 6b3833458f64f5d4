def log(msg):
    print(msg)


def _hidden():
    pass


LEVEL = 3
