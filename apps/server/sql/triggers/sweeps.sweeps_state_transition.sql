CREATE TRIGGER sweeps_state_transition BEFORE UPDATE OF status ON public.sweeps FOR EACH ROW WHEN ((old.status IS DISTINCT FROM new.status)) EXECUTE FUNCTION coffer_state_transition_guard('sweep');
