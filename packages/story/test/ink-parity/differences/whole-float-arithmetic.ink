VAR b = 1.25
Halves:
~ b = b - 0.25
{b / 2}
~ b = 1.5 + 1.5
{b / 2}
-> END
