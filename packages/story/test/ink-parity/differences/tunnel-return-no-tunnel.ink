Start.
->->
