import { CounterCard } from '../components/counter-card';

/** Shares the store with /counter, so both pages show the same count. */
export default function CounterIndex1Page() {
  return <CounterCard />;
}
