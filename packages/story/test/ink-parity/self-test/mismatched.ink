The door is red.
* [Open it]
  It opens.
* [Knock]
  Nobody answers.
- -> END
