/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** "1" lists the demo pages under Developer in Settings (lib/developer-menu.ts). */
  readonly VITE_DEVELOPER_MENU?: string;
}
