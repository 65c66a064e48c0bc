VAR name = "Mira"
Hi.
* I am {name}[.], you know.
- -> END
