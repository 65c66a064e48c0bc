The guard blocks the gate.
* [Bribe him]
  He pockets the coin.
* [Threaten him]
  He laughs.
* [Wait]
- Either way, night falls.
* [Sleep]
* [Keep watch]
  The stars turn.
- Morning.
-> END
