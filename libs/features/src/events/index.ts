// The events API's rules: its query read strictly, and the errors it answers with (the reads are libs/read-models').
export * from './events-query';
export * from './events.errors';
