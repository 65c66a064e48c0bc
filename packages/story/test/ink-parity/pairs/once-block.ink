-> hall
== hall ==
{ once:
  - A clock strikes.
  - A door slams.
}
The hall.
+ [Wait] -> hall
+ [Leave] -> END
