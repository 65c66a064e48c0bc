-> clock
== clock ==
The clock goes {&tick|tock|tack}.
+ [Listen] -> clock
+ [Leave] -> END
