She waits.
* [Say nothing]
  Silence.
* [Leave]
- -> END
