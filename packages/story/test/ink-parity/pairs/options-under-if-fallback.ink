VAR key = false
-> door
== door ==
The door is locked.
* [Knock]
  Nobody answers.
  -> door
* [Search the mat]
  ~ key = true
  A key!
  -> door
* {key} -> open
* {not key} -> stuck
== open ==
You unlock it.
-> END
== stuck ==
You give up.
-> END
