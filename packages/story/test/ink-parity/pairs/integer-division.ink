VAR x = 7
VAR y = -7
{x / 2} {y / 2} {x / 2.0} {x % 2} {FLOAT(x) / 4}
-> END
