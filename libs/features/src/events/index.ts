// The events API's application: its query string read strictly, its queries and their handlers (provided by EventsFeatureModule), and the errors it answers with (the reads are libs/read-models').
export * from './events-feature.module';
export * from './events-query';
export * from './events.errors';
export * from './events.handlers';
export * from './events.queries';
