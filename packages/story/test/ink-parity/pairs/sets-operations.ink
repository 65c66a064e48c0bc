LIST Tools = rope, lamp, key
VAR pack = (key, rope)
You carry {pack} ({LIST_COUNT(pack)} things); the first is {LIST_MIN(pack)}.
~ pack = (pack + lamp) - rope
{pack ? lamp:
  The lamp is lit: {pack}.
}
~ pack -= (lamp, key)
{not pack:
  Your hands are empty.
}
{(rope) < (lamp, key)} {(rope, key) == (key, rope)} {LIST_MAX((rope, key))} {(lamp) >= (rope)}
-> END
