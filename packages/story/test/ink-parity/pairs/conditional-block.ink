VAR gold = 2
* [Count your coins]
* [Find a purse]
  ~ gold = gold + 5
* [Pay the toll]
  ~ gold = 0
- { gold > 3:
    The innkeeper smiles.
    She pours you a drink.
  - else:
    The innkeeper frowns.
  }
{
  - gold > 5: You are rich.
  - gold > 0: You are getting by.
  - else: You are broke.
}
-> END
