You roll {RANDOM(1, 3)}.
-> END
