// class-transformer keeps its decorators' metadata in a module it does not re-export; its types live apart.
declare module 'class-transformer/cjs/storage' {
  export const defaultMetadataStorage: import('class-transformer/types/MetadataStorage').MetadataStorage;
}
