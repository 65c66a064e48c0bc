A stranger approaches.
* [Greet her]
  She nods.
  ** [Ask her name]
     "Ada."
  ** [Ask the way]
     "North."
  -- She walks on.
* [Ignore her]
  She shrugs.
- The road goes on.
-> END
