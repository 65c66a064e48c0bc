"Well?" she asks.
* "Hello[."]," you say, "there."
* [Say nothing]
  You say nothing.
- She waits.
-> END
