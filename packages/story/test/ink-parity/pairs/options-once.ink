-> talk
== talk ==
The barkeep waits.
* [Ask about the map]
  "Lost it at cards," she says.
  -> talk
* [Ask about the ship]
  "Sank," she says.
  -> talk
* [Leave]
  You leave.
  -> END
