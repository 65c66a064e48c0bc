It was really late.
Some bold and italic words.
Italic and bold words.
-> END
