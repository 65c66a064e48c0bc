-> gate
== gate ==
{ cycle:
  - The guard sleeps.
    * [Sneak past] -> through
    + [Wait] -> gate
  - The guard is awake.
    + [Wait] -> gate
}
== through ==
You are through.
-> END
