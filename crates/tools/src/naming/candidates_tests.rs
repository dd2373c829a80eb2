use super::path::from_method_path;
use super::*;

/// The names among the candidates (without the closing phrase).
fn cands(id: Option<&str>, method: &str, path: &str) -> Vec<String> {
    said(id, method, path, None)
}

fn said(id: Option<&str>, method: &str, path: &str, summary: Option<&str>) -> Vec<String> {
    let all = candidates(&Said {
        operation_id: id,
        method,
        path,
        summary,
        description: None,
    });
    assert_eq!(all.last(), Some(&phrase(method, path)));
    all.into_iter().filter(|c| is_name(c)).collect()
}

fn first(id: &str, method: &str, path: &str) -> String {
    cands(Some(id), method, path).remove(0)
}

#[test]
fn camel_case_ids_are_snake_cased() {
    assert_eq!(
        cands(Some("getPetById"), "get", "/pets/{id}"),
        ["get_pet_by_id"]
    );
}

#[test]
fn namespaced_ids_read_verb_first_without_repeating_the_namespace() {
    let c = |id: &str| cands(Some(id), "get", "/x");
    assert_eq!(c("repos/get"), ["get_repo"]);
    assert_eq!(c("users/list"), ["list_users"]);
    assert_eq!(c("repos/list-for-org"), ["list_repos_for_org"]);
    assert_eq!(
        c("issues/create-comment"),
        ["create_comment", "create_issue_comment"]
    );
    assert_eq!(c("classroom/list-classrooms"), ["list_classrooms"]);
    assert_eq!(c("classroom/get-a-classroom"), ["get_classroom"]);
    assert_eq!(
        c("agent-tasks/list-tasks-for-repo"),
        ["list_agent_tasks_for_repo"]
    );
    assert_eq!(
        c("actions/re-run-workflow"),
        ["rerun_workflow", "rerun_action_workflow"]
    );
    assert_eq!(c("pulls/create"), ["create_pull_request"]);
    assert_eq!(c("pulls/list"), ["list_pull_requests"]);
    assert_eq!(c("users/get-authenticated"), ["get_authenticated_user"]);
    assert_eq!(c("search/code"), ["search_code"]);
    assert_eq!(
        cands(Some("copilot/copilot-users-usage-metrics"), "get", "/x"),
        ["get_copilot_users_usage_metrics"]
    );
    assert_eq!(
        c("orgs/custom-properties-for-repos-get-organization-values"),
        ["get_custom_properties_for_repos_organization_values"]
    );
}

#[test]
fn framework_ids_read_verb_first_without_method_words() {
    let c = |id: &str, m: &str, p: &str| cands(Some(id), m, p);
    // ASP.NET/Azure `Controller_Action`.
    assert_eq!(
        c(
            "Recipients_DeleteRecipient",
            "delete",
            "/envelopes/{e}/recipients/{r}"
        )[0],
        "delete_recipient"
    );
    assert_eq!(
        c(
            "DedicatedCloudNodes_Delete",
            "delete",
            "/dedicatedCloudNodes/{n}"
        )[0],
        "delete_dedicated_cloud_node"
    );
    assert_eq!(
        c(
            "AftermarketServices_GetCerts",
            "get",
            "/AftermarketServices/Certificates"
        ),
        ["get_certs", "get_aftermarket_service_certs"]
    );
    assert_eq!(
        c("ShareSubscriptions_Get", "get", "/shareSubscriptions/{s}")[0],
        "get_share_subscription"
    );
    // The method's name is no verb.
    assert_eq!(
        c(
            "TimesheetSubmission_Post",
            "post",
            "/api/TimesheetSubmission"
        )[0],
        "create_timesheet_submission"
    );
    assert_eq!(
        c("CostCenters_PostCostCenter", "post", "/v1/costcenters")[0],
        "create_cost_center"
    );
    // springfox's `Using…`, NestJS's `Controller`, FastAPI's path and method.
    assert_eq!(
        c(
            "updateCredentialSecretUsingPOST",
            "post",
            "/x/{c}/resetSecret"
        )[0],
        "update_credential_secret"
    );
    assert_eq!(
        c("getExperimentUsingGET_1", "get", "/e/{id}")[0],
        "get_experiment"
    );
    assert_eq!(c("UsersController_findAll", "get", "/users")[0], "find_all");
    assert_eq!(
        c(
            "update_application_api_v1_app__app_id___put",
            "put",
            "/api/v1/app/{app_id}/"
        )[0],
        "update_application"
    );
    // Django's `noun_noun_verb`, camelCase `nounVerb`.
    assert_eq!(
        c("dcim_regions_delete", "delete", "/dcim/regions/{id}/")[0],
        "delete_dcim_region"
    );
    assert_eq!(
        c("paymentsDelete", "delete", "/pos/payments/{id}")[0],
        "delete_payment"
    );
    // AWS's `GET_Action` beside `POST_Action`.
    assert_eq!(
        c("GET_AttachInstances", "get", "/#Action=AttachInstances"),
        ["attach_instances", "get_attach_instances"]
    );
    // No verb: the method's, as the path says it (`list` of a collection).
    assert_eq!(
        c("Brands_Brands", "get", "/api/v2/Brands")[0],
        "list_brands"
    );
    // A phrasal verb keeps its particle.
    assert_eq!(
        c(
            "users.managedDevices.shutDown",
            "post",
            "/users/{u}/managedDevices/{d}/shutDown"
        )[0],
        "shut_down_managed_device"
    );
}

#[test]
fn summaries_name_what_ids_and_paths_do_not() {
    let s =
        |id: Option<&str>, m: &str, p: &str, summary: &str| said(id, m, p, Some(summary)).remove(0);
    // An id without a verb of its own.
    assert_eq!(
        s(
            Some("Available"),
            "post",
            "/QuickConnect/Available",
            "Enables or disables quick connect."
        ),
        "enable_or_disable_quick_connect"
    );
    assert_eq!(
        s(
            Some("TimesheetSubmission_Post"),
            "post",
            "/api/TimesheetSubmission",
            "Submit Timesheets for Approval."
        ),
        "submit_timesheets"
    );
    // A verb alone takes its object.
    assert_eq!(
        s(
            Some("cancel"),
            "delete",
            "/v1/subscriptions/{id}",
            "Cancel the specified Subscription"
        ),
        "cancel_subscription"
    );
    // No id: the summary's specific verb and object.
    assert_eq!(
        s(None, "get", "/subjects/{query}", "Search subjects"),
        "search_subjects"
    );
    assert_eq!(
        s(None, "put", "/administration/entity", "Pause organization"),
        "pause_organization"
    );
    // A generic verb keeps the path's name…
    assert_eq!(
        s(None, "get", "/api/sessions", "List available sessions"),
        "list_sessions"
    );
    // …but says what a POST to an item does.
    assert_eq!(
        s(
            None,
            "post",
            "/api/contents/{path}",
            "Create a new file in the specified path"
        ),
        "create_file"
    );
    // A summary naming nothing of the path names the operation.
    assert_eq!(
        s(None, "get", "/api/", "Get the Jupyter Server version"),
        "get_jupyter_server_version"
    );
    // A noun phrase changes nothing.
    assert_eq!(s(None, "get", "/orders/{id}", "Order details"), "get_order");
}

#[test]
fn dotted_ids_take_context_nearest_first() {
    assert_eq!(
        cands(Some("users.user.ListUser"), "get", "/users"),
        ["list_users"]
    );
    assert_eq!(
        cands(
            Some("me.calendarView.ListInstances"),
            "get",
            "/me/calendarView/{event-id}/instances"
        ),
        [
            "list_instances",
            "list_calendar_view_instances",
            "list_me_calendar_view_instances"
        ]
    );
    assert_eq!(
        first(
            "deviceAppManagement.mobileAppConfigurations.DeleteUserStatuses",
            "delete",
            "/deviceAppManagement/x/{id}/userStatuses/{s}"
        ),
        "delete_user_status"
    );
}

#[test]
fn hex_disambiguated_ids_fall_back_to_the_path() {
    assert!(!meaningful_operation_id("Get.Count.drives-7027"));
    assert_eq!(
        first("Get.Count.drives-7027", "get", "/drives/$count"),
        "count_drives"
    );
    assert_eq!(
        first(
            "x",
            "get",
            "/admin/issues/{id}/microsoft.graph.incidentReport()"
        ),
        // A meaningful id without a verb takes the method's.
        "get_x"
    );
    assert_eq!(
        fit(from_method_path(
            "get",
            "/admin/issues/{id}/microsoft.graph.incidentReport()"
        )),
        "get_admin_issue_incident_report"
    );
}

#[test]
fn meaningless_operation_ids_are_recognised() {
    for id in ["op1", "operation_2", "123", "get_/pets/{id}", "", "___"] {
        assert!(!meaningful_operation_id(id), "{id}");
    }
    assert!(meaningful_operation_id("findPetsByStatus"));
}

#[test]
fn names_from_method_and_path() {
    let n = |m: &str, p: &str| fit(from_method_path(m, p));
    assert_eq!(n("get", "/pets"), "list_pets");
    assert_eq!(n("get", "/pets/{id}"), "get_pet");
    assert_eq!(n("post", "/pets"), "create_pet");
    assert_eq!(n("put", "/pets/{id}"), "replace_pet");
    assert_eq!(n("patch", "/pets/{id}"), "update_pet");
    assert_eq!(n("delete", "/pets/{id}"), "delete_pet");
    assert_eq!(n("get", "/users/{id}/pets"), "list_user_pets");
    assert_eq!(n("get", "/api/v2/status"), "get_status");
    assert_eq!(n("get", "/"), "get_root");
    assert_eq!(n("head", "/pets/{id}"), "head_pet");
    assert_eq!(n("get", "/caches"), "list_caches");
    assert_eq!(n("get", "/data"), "get_data");
    assert_eq!(n("post", "/v1/accounts/{account}"), "update_account");
    assert_eq!(n("post", "/v1/accounts/{account}/reject"), "reject_account");
    assert_eq!(
        cands(
            Some("PostAccountsAccountBankAccounts"),
            "post",
            "/v1/accounts/{account}/bank_accounts"
        ),
        ["create_bank_account"]
    );
}

#[test]
fn long_names_drop_words_not_meaning() {
    let words: Vec<String> = "get_users_user_calendar_groups_calendar_group_calendars_calendar_calendar_view_event_single_value_extended_properties"
        .split('_')
        .map(str::to_string)
        .collect();
    let name = fit(words);
    assert!(name.len() <= MAX_LEN, "{name}");
    assert!(name.starts_with("get_"), "{name}");
    assert!(
        name.ends_with("_single_value_extended_properties"),
        "{name}"
    );
    assert!(!name.contains(|c: char| c.is_ascii_digit()), "{name}");
    let huge = vec!["get".to_string(), "x".repeat(80)];
    let h = fit(huge.clone());
    assert!(h.len() <= MAX_LEN);
    assert_eq!(h, fit(huge));
}
