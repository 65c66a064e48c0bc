"What's that?" my master asked.
* "I am somewhat tired[."]," I repeated.
  "Really," he responded.
* A [b] c
* [x] tail
* head [y]
- -> END
