The rain had stopped. The street was quiet.
A new paragraph.
* [Go on]
  The first line of the body. Its second line.
  And a second paragraph.
- The end.
-> END
