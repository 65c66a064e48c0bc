The clerk looks up.
* [Ask about rooms]
  -> rooms ->
  You take one.
* [Leave]
- -> END
== rooms ==
"Two left," she says.
->->
