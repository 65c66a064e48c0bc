-> search
== search ==
You search for a friendly face.
* [The woman in the hat]
  She pushes you aside.
  -> search
* [The man with the briefcase] -> search
* -> collapse
== collapse ==
You collapse onto the platform.
-> END
