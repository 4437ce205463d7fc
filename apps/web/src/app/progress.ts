import NProgress from 'nprogress';
import 'nprogress/nprogress.css';
import './progress.css';

// Spec §9: the bar starts at 0.08 and shows a spinner.
NProgress.configure({ minimum: 0.08, showSpinner: true });

export function startProgress() {
  NProgress.start();
}

export function doneProgress() {
  NProgress.done();
}
