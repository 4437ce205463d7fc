// First: gives every <style> element the page's CSP nonce (lib/style-nonce.ts).
import './lib/style-nonce';
import { createRoot } from 'react-dom/client';
import { ConsoleApp } from './app/console-app';
import './styles.css';

const root = document.getElementById('root');
if (root) createRoot(root).render(<ConsoleApp />);
