CREATE TRIGGER currencies_never_deleted BEFORE DELETE ON public.currencies FOR EACH ROW EXECUTE FUNCTION coffer_never_deleted();
