- (rim) You stand at the rim.
+ (coin) {coin < 2} [Drop a coin]
  Splash.
  -> rim
+ {rim > 1} [Make a wish]
  You wish.
  -> END
+ [Walk away] -> END
