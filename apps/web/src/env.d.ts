/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** "true" builds the spec's demo pages into a production bundle. */
  readonly VITE_DEMO_PAGES?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
