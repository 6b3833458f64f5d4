class Report:
    def render(self, orders: list) -> str:
        lines = []
        return "\n".join(lines)


def monthly_report(month: int) -> Report:
    return Report()
