/** Occurrence and attempt machines, timer wheel, dispatcher (filled in by the engine runtime work). @module */
export {};
