LIST Tools = rope, lamp, key
VAR pack = (rope, key)
You open your pack.
~ pack = pack + lamp - rope
You carry {pack}.
-> END
