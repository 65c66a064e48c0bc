Night at the inn.
The fire is almost out. #sound:fire #mood:cold
# important
A knock at the door.
* [Open the door #creak]
  A stranger. #mood:tense
* [Hide #quiet #low]
- Silence. #end
-> END
