CREATE TRIGGER accounts_never_deleted BEFORE DELETE ON public.accounts FOR EACH ROW EXECUTE FUNCTION coffer_never_deleted();
