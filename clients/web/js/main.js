// The web app's entry point.
document.getElementById("app").textContent = "SGEmployee";
