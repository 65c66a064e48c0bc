A new paragraph.
Its second line. #two
* [Read the letter]
  Dear friend,
  I write from the coast.
- Done.
-> END
