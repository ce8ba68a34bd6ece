/** Time zones, wall times and recurrence (filled in by the engine time work). @module */
export {};
