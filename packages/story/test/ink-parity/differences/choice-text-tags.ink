Hi.
* Hello[.] there #warm
* [Bye] #cold
- -> END
