VAR name = "Mira"
VAR title = ""
A new captain.
~ title = "Captain " + name
{title}, aged {20 + 1}.
{"a" + 1} {"n" + 2.5} {name + "!"}
{name == "Mira": Same name.|Other name.} {name != "Ada": Not Ada.}
* [Rename her]
  ~ name = "Ada"
  ~ title = "Captain " + name
* [Keep the name]
- {title}.
-> END
