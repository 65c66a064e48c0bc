VAR lit = true
Dark.
* [Hide]
  Hidden.
* {lit} Light[ the lamp] it
* {not lit} [Wait]
- -> END
