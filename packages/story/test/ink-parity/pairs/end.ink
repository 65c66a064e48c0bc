The trap springs.
* [Jump]
  You land safely.
* [Stand still]
  It hurts. Everything goes dark.
  -> END
* [Give up] -> END
- You walk on.
-> END
