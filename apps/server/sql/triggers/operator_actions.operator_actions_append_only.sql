CREATE TRIGGER operator_actions_append_only BEFORE DELETE OR UPDATE ON public.operator_actions FOR EACH ROW EXECUTE FUNCTION coffer_operator_actions_append_only();
