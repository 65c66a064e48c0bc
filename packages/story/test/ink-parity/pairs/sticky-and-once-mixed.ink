-> market
== market ==
The market is loud.
* [Buy an apple] -> market
+ [Haggle] -> market
* [Buy a pear] -> market
+ [Leave] -> END
