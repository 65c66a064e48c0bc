CONST MAX_HP = 10
CONST NAME = "Mira"
VAR hp = 10
{NAME} has {hp} of {MAX_HP} hit points.
~ hp = hp - MAX_HP / 2
Now {hp}.
-> END
