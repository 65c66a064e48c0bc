VAR x = 7
VAR f = 2.5
{MIN(x, 3)} {MAX(x, 3)} {FLOOR(f)} {CEILING(f)} {INT(f)} {FLOOR(-f)} {MIN(f, x)} {MAX(-1, -2)}
-> END
