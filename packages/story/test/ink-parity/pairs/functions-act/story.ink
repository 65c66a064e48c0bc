VAR gold = 5
VAR spent = 0
{pay(3, gold): You buy bread; {gold} coins left.}
{not pay(3, gold): A second loaf is too dear ({gold} coins left, {spent} spent).}
The ten stalls can be visited in {orders(10)} orders.
* [Tip the baker]
  ~ tip(gold)
  You tip the baker; {gold} coins left.
* [Leave]
- Spent: {spent}.
-> END
=== function pay(cost, ref purse) ===
{ purse < cost:
  ~ return false
}
~ purse -= cost
~ spent += cost
~ return true
=== function orders(n) ===
{ n <= 1:
  ~ return 1
}
~ return n * orders(n - 1)
=== function tip(ref purse) ===
~ temp share = purse / 2
~ purse -= share
~ spent += share
