import { createRoot } from 'react-dom/client';
import { ConsoleApp } from './app/console-app';
import './styles.css';

const root = document.getElementById('root');
if (root) createRoot(root).render(<ConsoleApp />);
