We hurried home<>

ward at last.
The rain <>

kept falling.
-> END
