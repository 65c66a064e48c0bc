She asks your name.
* "Mira[."]," you say
  <>, quietly.
- -> END
