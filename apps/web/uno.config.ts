import { defineConfig, presetWind3 } from 'unocss';

export default defineConfig({
  presets: [presetWind3()],
  // Only src/ is scanned so the CSS stays proportional to what the pages actually use.
  content: { pipeline: { include: [/src\/.*\.(tsx|ts)$/] } },
});
